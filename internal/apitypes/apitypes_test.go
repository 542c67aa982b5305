package apitypes

import "testing"

// TestPluralize: the expected plurals were printed by github.com/markbates/inflect v1.0.4's
// Pluralize (the library operator-sdk v1.42.3 calls) for the same words.
func TestPluralize(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"memcached", "memcacheds"},
		{"argocd", "argocds"},
		{"policy", "policies"},
		{"status", "statuses"},
		{"index", "indices"},
		{"matrix", "matrices"},
		{"box", "boxes"},
		{"bus", "buses"},
		{"quiz", "quizzes"},
		{"ox", "oxen"},
		{"person", "people"},
		{"child", "children"},
		{"species", "species"},
		{"leaf", "leafs"},
		{"knife", "knives"},
		{"dnsrecord", "dnsrecords"},
		{"nodehealthcheck", "nodehealthchecks"},
		{"ingress", "ingresses"},
		{"proxy", "proxies"},
		{"cache", "caches"},
		{"datasciencecluster", "datascienceclusters"},
		{"alias", "aliases"},
		{"series", "series"},
		{"hive", "hives"},
		{"safe", "saves"},
		{"authpolicy", "authpolicies"},
		{"mouse", "mice"},
		{"buffalo", "buffaloes"},
		{"move", "moves"},
		{"human", "humans"},
		{"gateway", "gateways"},
	} {
		t.Run(tt.word, func(t *testing.T) {
			if got := pluralize(tt.word); got != tt.want {
				t.Errorf("pluralize(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

// TestDisplayName: operator-sdk's k8sutil.GetDisplayName on the same names.
func TestDisplayName(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"memcached-operator", "Memcached Operator"},
		{"ArgoCD", "Argo CD"},
		{"TLSConfig", "TLSConfig"},
		{"spec.someField", "Spec Some Field"},
		{"node_health check", "Node Health Check"},
		{"s3Bucket", "S3 Bucket"},
		{"", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := DisplayName(tt.name); got != tt.want {
				t.Errorf("DisplayName(%q) = %q, want %q", tt.name, got, tt.want)
			}
		})
	}
}

func TestMakePath(t *testing.T) {
	for _, tt := range []struct {
		name     string
		segments []string
		want     string
		ok       bool
	}{
		{"plain", []string{"size"}, "size", true},
		{"nested array", []string{"providers[0]", "foo", "credentialsSecret"}, "providers[0].foo.credentialsSecret", true},
		{"array last", []string{"wheels[0]"}, "wheels", true},
		{"inlined parent", []string{inlinedTag, "engine"}, "engine", true},
		{"inlined last", []string{"hog", inlinedTag}, "", false},
		{"ignored", []string{"hog", ignoredTag, "engine"}, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := makePath(tt.segments)
			if got != tt.want || ok != tt.ok {
				t.Errorf("makePath(%q) = %q, %v; want %q, %v", tt.segments, got, ok, tt.want, tt.ok)
			}
		})
	}
}
