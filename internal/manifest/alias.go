package manifest

import (
	"bytes"

	yamlv3 "gopkg.in/yaml.v3"
)

// checkAliases refuses a document whose aliases would expand to more than limit nodes
// (a "billion laughs" document) before anything expands them. Documents without anchors
// cost one bytes.IndexByte.
func checkAliases(raw []byte, limit int) error {
	if bytes.IndexByte(raw, '&') < 0 || bytes.IndexByte(raw, '*') < 0 {
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
