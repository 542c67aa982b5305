package makefile

// Expansion is bounded in size, not only in depth: `A1 = $(A0)$(A0)`, `A2 = $(A1)$(A1)`, ... doubles
// at every line, so forty lines would need a terabyte. Every expansion is charged the bytes it
// scans and produces plus a fixed cost per call (so that empty values still count); past the
// budget every expansion stops at once and Read fails.
const (
	maxExpansion = 1 << 20  // one expansion's result
	maxSpent     = 64 << 20 // everything one Read expands
	callCost     = 64
)

const tooLarge = "an expansion larger than opack reads (make would build it)"

// charge spends n bytes (and one call) of the budget; false once it is spent.
func (f *File) charge(n int) bool {
	if f.spent > maxSpent {
		return false
	}
	f.spent += int64(n) + callCost
	return f.spent <= maxSpent
}
