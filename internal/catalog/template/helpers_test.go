package template

// renderBundlesDir holds opm's registry+v1 bundle fixtures.
const renderBundlesDir = "../../../testdata/opm/bundles-registry-v1"
