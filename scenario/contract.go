package scenario

import (
	"embed"
	"io/fs"
)

// contract is the forced-card contract's public scenarios
// (testdata/contract), built into the binary so that a command finds them
// wherever it runs (`sabot certify` from any folder).
//
//go:embed testdata/contract/*.json
var contract embed.FS

// ContractDir names the contract's scenarios where the source keeps them,
// and where a kit says they came from.
const ContractDir = "scenario/testdata/contract"

// Contract returns the contract's scenarios, one JSON file each, as built
// into the binary.
func Contract() fs.FS {
	sub, err := fs.Sub(contract, "testdata/contract")
	if err != nil {
		panic(err) // the pattern above names the folder
	}
	return sub
}
