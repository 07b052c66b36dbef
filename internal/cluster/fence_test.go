package cluster

import (
	"errors"
	"fmt"
	"testing"

	"sabot"
)

// An append refused under an old epoch fences the table once: the first
// refusal is told (the actor logs it), the table stops after the step in
// hand, round dealt or not.
func TestFenceRefused(t *testing.T) {
	f := NewFence()
	if f.Refused(errors.New("disk full")) || f.Refused(nil) || f.Fenced() || f.Stop(false) {
		t.Fatal("fenced by an error that is not the store's refusal of the epoch")
	}
	refusal := fmt.Errorf("append: %w", sabot.ErrFenced)
	if !f.Refused(refusal) || !f.Fenced() {
		t.Fatal("the store's refusal did not fence the table")
	}
	if f.Refused(refusal) {
		t.Error("a second refusal was told again")
	}
	if f.Moved() {
		t.Error("moved before the actor stopped")
	}
	if !f.Stop(true) || !f.Moved() {
		t.Error("a fenced table did not stop in a round in play")
	}
}

// A table asked to hand over stops between rounds: not while a round is
// in play, and only once the actor has seen the ask.
func TestFenceHandOver(t *testing.T) {
	f := NewFence()
	if f.HandingOver() {
		t.Fatal("handing over unasked")
	}
	f.HandOver()
	f.HandOver() // asked again: nothing more
	if !f.HandingOver() {
		t.Fatal("not handing over once asked")
	}
	select {
	case <-f.Asked():
	default:
		t.Fatal("the ask is not seen by the actor")
	}
	if f.Stop(false) {
		t.Error("stopped before the actor saw the ask")
	}
	f.Leave()
	if f.Stop(true) || f.Moved() {
		t.Error("stopped with a round in play")
	}
	if !f.Stop(false) || !f.Moved() || f.Fenced() {
		t.Error("did not stop between rounds, or stopped as fenced")
	}
}

// A node's lost lease fences every table it serves.
func TestFenceLose(t *testing.T) {
	f := NewFence()
	f.Lose()
	if !f.Fenced() || !f.Stop(true) {
		t.Error("a table of a node whose lease is lost goes on")
	}
}
