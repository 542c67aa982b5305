//go:build !race

package crd

const raceEnabled = false
