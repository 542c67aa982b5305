package fbc

const (
	opmTestdata = "../../testdata/opm"
	corpusFBC   = "../../../shared/corpus/fbc/certified-operators-v4.22"
)
