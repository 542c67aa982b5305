package main

import (
	"fmt"
	"strings"
)

// concise is operator-controller v1.11.0's shortening of crdify's "unhandled" messages
// (crdupgradesafety.go: conciseUnhandledMessage and its helpers, copied verbatim below, Apache-2.0,
// Copyright The Operator-Framework Authors): the ClusterExtension shows "unhandled changes found (Format
// "" -> "email")" instead of crdify's cmp.Diff dump.
func concise(validation, msg string) string {
	if validation == "unhandled" {
		return conciseUnhandledMessage(msg)
	}
	return msg
}

const unhandledSummaryPrefix = "unhandled changes found"

// conciseUnhandledMessage trims the CRD diff emitted by crdify's "unhandled" comparator
// into a short human readable description so operators get a hint of the change without
// the unreadable Go struct dump.
func conciseUnhandledMessage(raw string) string {
	if !strings.Contains(raw, unhandledSummaryPrefix) {
		return raw
	}

	details := extractUnhandledDetails(raw)
	if len(details) == 0 {
		return unhandledSummaryPrefix
	}

	return fmt.Sprintf("%s (%s)", unhandledSummaryPrefix, strings.Join(details, "; "))
}

func extractUnhandledDetails(raw string) []string {
	type diffEntry struct {
		before    string
		after     string
		beforeRaw string
		afterRaw  string
	}

	entries := map[string]*diffEntry{}
	order := []string{}

	for _, line := range strings.Split(raw, "\n") {
		trimmed := strings.TrimSpace(line)
		if len(trimmed) < 2 {
			continue
		}

		sign := trimmed[0]
		if sign != '-' && sign != '+' {
			continue
		}

		field, value, rawValue := parseUnhandledDiffValue(trimmed[1:])
		if field == "" {
			continue
		}

		entry, ok := entries[field]
		if !ok {
			entry = &diffEntry{}
			entries[field] = entry
			order = append(order, field)
		}

		if sign == '-' {
			entry.before = value
			entry.beforeRaw = rawValue
		} else {
			entry.after = value
			entry.afterRaw = rawValue
		}
	}

	details := []string{}
	for _, field := range order {
		entry := entries[field]
		if entry.before == "" && entry.after == "" {
			continue
		}
		if entry.before == entry.after && entry.beforeRaw == entry.afterRaw {
			continue
		}

		before := entry.before
		if before == "" {
			before = "<empty>"
		}
		after := entry.after
		if after == "" {
			after = "<empty>"
		}
		if entry.before == entry.after && entry.beforeRaw != entry.afterRaw {
			after = after + " (changed)"
		}

		details = append(details, fmt.Sprintf("%s %s -> %s", field, before, after))
	}

	return details
}

func parseUnhandledDiffValue(fragment string) (string, string, string) {
	cleaned := strings.TrimSpace(fragment)
	cleaned = strings.TrimPrefix(cleaned, "\t")
	cleaned = strings.TrimSpace(cleaned)
	cleaned = strings.TrimSuffix(cleaned, ",")

	parts := strings.SplitN(cleaned, ":", 2)
	if len(parts) != 2 {
		return "", "", ""
	}

	field := strings.TrimSpace(parts[0])
	rawValue := strings.TrimSpace(parts[1])
	value := normalizeUnhandledValue(rawValue)

	if field == "" {
		return "", "", ""
	}

	return field, value, rawValue
}

func normalizeUnhandledValue(value string) string {
	value = strings.TrimSuffix(value, ",")
	value = strings.TrimSpace(value)

	switch value {
	case "":
		return "<empty>"
	case "\"\"":
		return "\"\""
	}

	value = strings.ReplaceAll(value, "v1.", "")
	if strings.Contains(value, "JSONSchemaProps") {
		return "<complex value>"
	}

	return value
}
