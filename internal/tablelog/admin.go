package tablelog

import "sabot/money"

// AdminMoney is what the reports read of a significant event (a
// wire.AdminEvent's fields): its name, whom it concerns and its amount.
type AdminMoney struct {
	Event  string       `json:"event"`
	User   string       `json:"user"`
	Amount money.Amount `json:"amount"`
}

// ConfigureOptions is what the reports read of a configuration change
// (sabot.LogConfigure): the options in force from then on.
type ConfigureOptions struct {
	Options map[string]string `json:"options"`
}
