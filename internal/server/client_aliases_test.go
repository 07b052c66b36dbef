package server

import "sabot/internal/client"

// The Go client, its bots and its hostile client moved to internal/client
// (issue 27, item 2); the server's tests drive a server through it under
// its old names here until each test says client.

type (
	Client        = client.Client
	Feed          = client.Feed
	Bot           = client.Bot
	BotCount      = client.BotCount
	BotStats      = client.BotStats
	Crowd         = client.Crowd
	BotsConfig    = client.BotsConfig
	BotsReport    = client.BotsReport
	Hostile       = client.Hostile
	HostileReport = client.HostileReport
)

var (
	Rotate   = client.Rotate
	NewCrowd = client.NewCrowd
	Strategy = client.Strategy
	RunBots  = client.RunBots
)

const (
	DefaultKeepalive   = client.DefaultKeepalive
	DefaultDialTimeout = client.DefaultDialTimeout
	DefaultCallTimeout = client.DefaultCallTimeout
)
