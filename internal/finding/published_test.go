package finding

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFoldPublished: the findings on published content of each file and package become one info line
// in the place of the first, saying how many there are by severity and how to list them; every other
// finding stays, in order.
func TestFoldPublished(t *testing.T) {
	pub := func(sev Severity, file, object, msg string) Finding {
		f := Finding{Severity: sev, File: file, Object: object, Rule: "crd-upgrade/field-removed", Message: msg}
		f.MarkPublished()
		return f
	}
	change := Finding{Severity: SeverityError, File: "catalog", Object: `package "op" edge op.v1 -> op.v2`, Rule: "crd-upgrade/field-removed", Message: "about the change"}
	other := Finding{Severity: SeverityWarning, File: "bundle", Rule: "olmv1/install-modes", Message: "not published"}
	in := []Finding{
		other,
		pub(SeverityError, "catalog", `package "op" edge a -> b`, "one"),
		change,
		pub(SeverityWarning, "catalog", `package "op" edge b -> c`, "two"),
		pub(SeverityInfo, "catalog", `package "other"`, "three"),
		pub(SeverityWarning, "catalog", `package "op" channel "stable"`, "four"),
	}
	const hint = "list them with --published or -v"
	want := []Finding{
		other,
		{Severity: SeverityInfo, File: "catalog", Object: `package "op"`, Package: "op", Rule: RulePublished,
			Message: "3 findings on releases already published, which this build cannot change (3 warnings): " + hint},
		change,
		{Severity: SeverityInfo, File: "catalog", Object: `package "other"`, Package: "other", Rule: RulePublished,
			Message: "1 finding on releases already published, which this build cannot change (1 info): " + hint},
	}
	if diff := cmp.Diff(want, FoldPublished(in, hint)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	none := []Finding{other, change}
	if diff := cmp.Diff(none, FoldPublished(none, hint)); diff != "" {
		t.Errorf("nothing published (-want +got):\n%s", diff)
	}
}
