package bundle

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"
)

// renderCSV sets createdAt and renders the CSV. The value is, in order: Options.CreatedAt; the
// previous CSV's value when the CSV would otherwise be byte-identical to previous; the time
// in SOURCE_DATE_EPOCH; the clock. So regenerating unchanged input changes nothing.
func renderCSV(csv *v1alpha1.ClusterServiceVersion, o *Options, previous []byte) ([]byte, error) {
	if o.CreatedAt != "" {
		if _, err := time.Parse(time.RFC3339, o.CreatedAt); err != nil {
			return nil, fmt.Errorf("--created-at %q is not an RFC 3339 time (e.g. 2024-01-02T15:04:05Z): %w", o.CreatedAt, err)
		}
		csv.Annotations[AnnotationCreatedAt] = o.CreatedAt
		return marshalCSV(csv)
	}
	if prev := previousCreatedAt(previous); prev != "" {
		csv.Annotations[AnnotationCreatedAt] = prev
		data, err := marshalCSV(csv)
		if err != nil || bytes.Equal(data, previous) {
			return data, err
		}
	}
	now, err := newCreatedAt(o)
	if err != nil {
		return nil, err
	}
	csv.Annotations[AnnotationCreatedAt] = now
	return marshalCSV(csv)
}

// previousCreatedAt reads metadata.annotations.createdAt of a rendered CSV ("" if none).
func previousCreatedAt(data []byte) string {
	if len(data) == 0 {
		return ""
	}
	csv, err := decodeCSVYAML(data)
	if err != nil {
		return ""
	}
	return csv.GetAnnotations()[AnnotationCreatedAt]
}

func newCreatedAt(o *Options) (string, error) {
	if o.SourceDateEpoch != "" {
		sec, err := strconv.ParseInt(o.SourceDateEpoch, 10, 64)
		if err != nil {
			return "", fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds: %w", o.SourceDateEpoch, err)
		}
		return time.Unix(sec, 0).UTC().Format(time.RFC3339), nil
	}
	return o.Now().UTC().Format(time.RFC3339), nil
}
