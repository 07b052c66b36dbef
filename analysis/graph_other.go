//go:build !amd64

package analysis

// useAVX2 is false where there is no statesAVX2: dist4 runs states4.
var useAVX2 = false

func statesAVX2(states []dState, edges []dEdge, held []dHeld, prob, acc, w, inv *lane) {
	panic("analysis: statesAVX2 on a processor without it")
}

func classesAVX2(acc *lane, nc int, gstart []int32, groups []dGroup, masks []uint16, ms *lane, res *[outcomes]lane) {
	panic("analysis: classesAVX2 on a processor without it")
}

func setupAVX2(sh *[lanes]*Counts, masks []uint16, ms *lane, heldMax *[kinds]int, stride int, w, inv *lane, ninv int) {
	panic("analysis: setupAVX2 on a processor without it")
}
