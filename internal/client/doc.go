// Package client is the Go client of the table server's API: the HTTP API
// and a table's WebSocket (Client, Feed), the bots that play over them
// (Bot, RunBots: `sabot bots`) and the hostile client that measures what
// abuse does to the other players (Hostile: `sabot hostile`). It speaks
// the API's types (internal/wire) and never imports the server.
package client
