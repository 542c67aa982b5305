package validate

import (
	"regexp"
	"sort"
	"strings"

	apierrors "github.com/operator-framework/api/pkg/validation/errors"
)

// operator-framework/api (v0.45) builds some results by ranging over Go maps, so the order of those
// findings — and of the items inside a few messages — changes from run to run (operator-sdk's own output
// shuffles the same way). stableResult puts them in a fixed order and leaves every other finding where
// operator-sdk puts it.

// mapOrderedRuns match the details that operator-framework/api emits once per key of a map; a run of
// consecutive errors (or warnings) matching the same pattern is sorted by its text.
var mapOrderedRuns = []*regexp.Regexp{
	// pkg/validation/internal/csv.go matchGVKProvidedAPIs: one per GVK of the example and provided-API sets.
	regexp.MustCompile(`^provided API should have an example annotation$`),
	regexp.MustCompile(`^example must have a provided API$`),
	// annotations.go ValidateAnnotationNames: one per key of the CSV's annotations.
	regexp.MustCompile(`^provided annotation .* uses wrong case and should be .* instead$`),
	// bundle.go validateOwnedCRDs: one per key of the bundle's CRD key set.
	regexp.MustCompile(`^CRD ".*" is present in bundle ".*" but not defined in CSV$`),
}

// quoted matches one Go-quoted string, as %q and %+q print it.
const quoted = `"(?:[^"\\]|\\.)*"`

var (
	// removed_apis.go generateMessageWithDeprecatedAPIs ranges over a map: "Migrate the API(s) for
	// KIND: (["name" ...]),KIND: (["name" ...]),".
	deprecatedAPIsList = regexp.MustCompile(`^(.*Migrate the API\(s\) for )(.*)$`)
	deprecatedAPIsItem = regexp.MustCompile(`[^,:]+: \(\[(?:` + quoted + `(?: ` + quoted + `)*)?\]\)`)
	// good_practices.go getUniqueValues returns a map's keys: `channel(s) ["a" "b"] are not following ...`.
	channelsList = regexp.MustCompile(`^(channel\(s\) \[)((?:` + quoted + `(?: ` + quoted + `)*)?)(\] are not following .*)$`)
	quotedItem   = regexp.MustCompile(quoted)
)

// stableResult returns r with map-ordered findings and message items in a fixed order.
func stableResult(r apierrors.ManifestResult) apierrors.ManifestResult {
	r.Errors = stableErrors(r.Errors)
	r.Warnings = stableErrors(r.Warnings)
	return r
}

func stableErrors(es []apierrors.Error) []apierrors.Error {
	if len(es) == 0 {
		return es
	}
	out := make([]apierrors.Error, len(es))
	for i, e := range es {
		e.Detail = stableDetail(e.Detail)
		out[i] = e
	}
	for start := 0; start < len(out); {
		p := runPattern(out[start].Detail)
		end := start + 1
		for p >= 0 && end < len(out) && runPattern(out[end].Detail) == p {
			end++
		}
		run := out[start:end]
		sort.SliceStable(run, func(i, j int) bool { return run[i].Error() < run[j].Error() })
		start = end
	}
	return out
}

// runPattern returns the index of the map-ordered pattern detail matches, or -1.
func runPattern(detail string) int {
	for i, re := range mapOrderedRuns {
		if re.MatchString(detail) {
			return i
		}
	}
	return -1
}

// stableDetail sorts the items of a message operator-framework/api lists in map order.
func stableDetail(d string) string {
	if m := deprecatedAPIsList.FindStringSubmatch(d); m != nil {
		// v0.45 never advances its item counter: every item but a lone one ends with ",".
		list, last := strings.TrimSuffix(m[2], ","), ""
		if list != m[2] {
			last = ","
		}
		items := deprecatedAPIsItem.FindAllString(list, -1)
		if strings.Join(items, ",") == list { // exactly the items, nothing else: safe to reorder
			sort.Strings(items)
			return m[1] + strings.Join(items, ",") + last
		}
	}
	if m := channelsList.FindStringSubmatch(d); m != nil {
		items := quotedItem.FindAllString(m[2], -1)
		sort.Strings(items)
		return m[1] + strings.Join(items, " ") + m[3]
	}
	return d
}
