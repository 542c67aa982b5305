package version

import "testing"

func TestReleaseOf(t *testing.T) {
	for _, tt := range []struct{ version, want string }{
		{"v0.2.0", "v0.2.0"},                          // make build at a tag; go install …@v0.2.0
		{"v1.0.0-rc.1", "v1.0.0-rc.1"},                // a pre-release tag
		{"v0.2.0-3-gabc1234", Dev},                    // make build between tags (git describe)
		{"v0.2.0-dirty", Dev},                         // make build at a tag with local changes
		{"abc1234", Dev},                              // git describe --always without tags
		{"v0.0.0-20261123201234-abcdef123456", Dev},   // go build in a checkout (pseudo-version)
		{"v0.2.1-0.20261123201234-abcdef123456", Dev}, // pseudo-version after a tag
		{"v0.2.1-0.20261123201234-abcdef123456+dirty", Dev},
		{"(devel)", Dev},
		{"", Dev},
	} {
		t.Run(tt.version, func(t *testing.T) {
			if got := releaseOf(tt.version); got != tt.want {
				t.Errorf("releaseOf(%q) = %q, want %q", tt.version, got, tt.want)
			}
		})
	}
}
