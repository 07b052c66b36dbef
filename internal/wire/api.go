package wire

import "sabot/money"

// The bodies of the HTTP API's requests besides the table commands
// (command.go), and its answers.

// Credentials is the body of register and login.
type Credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// UserView is a user as the API shows it.
type UserView struct {
	ID     int64        `json:"id"`
	Name   string       `json:"name"`
	Admin  bool         `json:"admin,omitempty"`
	Role   string       `json:"role,omitempty"` // dealer or inspector: the staff of a live table
	Wallet money.Amount `json:"wallet"`
	// Operator: the wallet is the operator's (a player launched from its
	// site): Wallet is the balance it last said.
	Operator bool `json:"operator,omitempty"`
}

// LoginResult is the answer to a login.
type LoginResult struct {
	Token string   `json:"token"`
	User  UserView `json:"user"`
}

// CreditRequest is an administrator's credit of a wallet with play money.
type CreditRequest struct {
	CommandID string       `json:"command_id"`
	User      string       `json:"user"`
	Amount    money.Amount `json:"amount"`
	Memo      string       `json:"memo,omitempty"`
}

// TableRequest creates a table.
type TableRequest struct {
	Name     string            `json:"name"`
	Profile  string            `json:"profile"`
	Options  map[string]string `json:"options,omitempty"`
	TestMode bool              `json:"test_mode,omitempty"`
}

// LaunchRequest is a launch by a program (POST /api/launch): the
// operator's token.
type LaunchRequest struct {
	Token string `json:"token"`
}
