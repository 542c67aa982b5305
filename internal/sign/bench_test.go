package sign

import (
	"context"
	"testing"
)

// BenchmarkSign signs a pushed image (attach, read back, verify) on the in-process registry, with
// one attestation; each iteration a new image, so that nothing is signed already.
func BenchmarkSign(b *testing.B) {
	host := newRegistryB(b)
	key, _ := keyPairB(b, "")
	b.Setenv("TEST_KEY_PASSWORD", "")
	s, err := LoadPrivateKey(key, PasswordFromEnv("TEST_KEY_PASSWORD"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		img := pushRandomB(b, host+"/demo/bundle:v1")
		b.StartTimer()
		if _, err := Sign(context.Background(), s, Request{Image: img, Identity: host + "/demo/bundle:v1"}, testOptions()...); err != nil {
			b.Fatal(err)
		}
	}
}
