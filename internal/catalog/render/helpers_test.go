package render

// opmTestdata holds the opm v1.73.0 fixtures (testdata/opm/README.md).
const opmTestdata = "../../../testdata/opm"
