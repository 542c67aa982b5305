package benchutil

import "testing"

func TestPeakRSS(t *testing.T) {
	if !ResetPeak() {
		t.Skip("this kernel does not allow resetting the peak RSS")
	}
	before := PeakRSS()
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	after := PeakRSS()
	if after < before+32<<20 {
		t.Errorf("PeakRSS() = %d after touching 64 MiB, was %d before", after, before)
	}
	_ = buf[len(buf)-1]
}
