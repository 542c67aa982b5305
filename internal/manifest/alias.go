package manifest

import (
	"bytes"

	yamlv3 "gopkg.in/yaml.v3"
)

// checkAliases refuses a document whose aliases would expand to more than limit nodes
// (a "billion laughs" document) before anything expands them. Documents without an alias
// cost a scan for '*' (mayHaveAlias); only the others are parsed here.
func checkAliases(raw []byte, limit int) error {
	if bytes.IndexByte(raw, '&') < 0 || !mayHaveAlias(raw) {
		return nil
	}
	var n yamlv3.Node
	if err := yamlv3.Unmarshal(raw, &n); err != nil {
		return nil // the real decoder reports syntax errors with its own messages
	}
	memo := map[*yamlv3.Node]int{}
	if size := expandedSize(&n, memo, limit); size > limit {
		return &LimitError{What: "alias expansion", Limit: int64(limit)}
	}
	return nil
}

// expandedSize counts the nodes of n with every alias expanded, stopping past limit.
func expandedSize(n *yamlv3.Node, memo map[*yamlv3.Node]int, limit int) int {
	if n == nil {
		return 0
	}
	if v, ok := memo[n]; ok {
		return v
	}
	memo[n] = limit + 1 // a cycle counts as too large
	size := 1
	if n.Kind == yamlv3.AliasNode {
		size += expandedSize(n.Alias, memo, limit)
	}
	for _, c := range n.Content {
		size += expandedSize(c, memo, limit)
		if size > limit {
			break
		}
	}
	memo[n] = size
	return size
}

// mayHaveAlias reports whether raw has a '*' where a YAML alias can start: at the start of a
// line or after white space or a flow or block indicator, and followed by an anchor name
// character. It
// may say yes for a '*' inside a string (the document is then parsed), never no for an alias.
// CSVs and CRDs hold '&' and '*' in descriptions and patterns ("a && b", "*.example.com" in
// quotes, "* item", "**bold**"); without this they were all parsed twice.
func mayHaveAlias(raw []byte) bool {
	for i := bytes.IndexByte(raw, '*'); i >= 0; {
		if i+1 < len(raw) && isAnchorChar(raw[i+1]) && (i == 0 || isAliasLead(raw[i-1])) {
			return true
		}
		j := bytes.IndexByte(raw[i+1:], '*')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// isAnchorChar: the characters of anchor and alias names for the libyaml scanner of yaml.v2 and
// yaml.v3 ([0-9A-Za-z_-]; non-ASCII bytes are counted in, to be safe).
func isAnchorChar(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// isAliasLead: the characters after which a node, and so an alias, can start.
func isAliasLead(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '[', '{', ',', ':', '-', '?':
		return true
	}
	return false
}
