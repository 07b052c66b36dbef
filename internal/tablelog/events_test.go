package tablelog

import (
	"encoding/json"
	"reflect"
	"testing"

	"sabot/card"
	"sabot/internal/wire"
)

// TestEventTypesAreEvents: every significant event's name has one type,
// in the order of Events, its versioned type v1 of its name, no two alike.
func TestEventTypesAreEvents(t *testing.T) {
	if len(EventTypes) != len(Events) {
		t.Fatalf("%d event types for %d events", len(EventTypes), len(Events))
	}
	seen := map[string]bool{}
	for i, e := range EventTypes {
		if e.EventName() != Events[i] {
			t.Errorf("EventTypes[%d] is %q (%T), Events[%d] %q", i, e.EventName(), e, i, Events[i])
		}
		if want := EventTypePrefix + "v1." + e.EventName(); e.EventType() != want {
			t.Errorf("%T's type is %q, want %q", e, e.EventType(), want)
		}
		if seen[e.EventType()] {
			t.Errorf("%q twice", e.EventType())
		}
		seen[e.EventType()] = true
		if a := e.Admin(); a.Event != e.EventName() {
			t.Errorf("%T is written as %q", e, a.Event)
		}
	}
}

// fullAdmin is a wire.AdminEvent with every field set.
func fullAdmin(t *testing.T) wire.AdminEvent {
	t.Helper()
	var a wire.AdminEvent
	v := reflect.ValueOf(&a).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("s" + v.Type().Field(i).Name)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]string{"max_bet": "500"}))
		case reflect.Slice:
			f.Set(reflect.ValueOf([]card.Card{card.MustParse("AS")}))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("wire.AdminEvent.%s: a %s this test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	return a
}

// TestEventKeepsItsValues: a stored event read as its type (EventOf) and
// written again keeps exactly the values its type has, by their names, and
// every other is zero; its JSON is its record's. A value copied to the
// wrong field, or one dropped, fails here.
func TestEventKeepsItsValues(t *testing.T) {
	full := fullAdmin(t)
	for i, name := range Events {
		in := full
		in.Event = name
		e, ok := EventOf(in)
		if !ok || reflect.TypeOf(e) != reflect.TypeOf(EventTypes[i]) {
			t.Fatalf("EventOf(%q) = %T, %v; want %T", name, e, ok, EventTypes[i])
		}
		typ := reflect.TypeOf(e)
		out := e.Admin()
		ov, fv := reflect.ValueOf(out), reflect.ValueOf(in)
		for j := range ov.NumField() {
			f := ov.Type().Field(j).Name
			if f == "Event" {
				continue
			}
			_, has := typ.FieldByName(f)
			switch {
			case has && !reflect.DeepEqual(ov.Field(j).Interface(), fv.Field(j).Interface()):
				t.Errorf("%T: %s written as %v, read %v", e, f, ov.Field(j), fv.Field(j))
			case !has && !ov.Field(j).IsZero():
				t.Errorf("%T has no %s, yet writes one", e, f)
			}
		}
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(out)
		if string(got) != string(want) {
			t.Errorf("%T's JSON %s, its record's %s", e, got, want)
		}
	}
	if _, ok := EventOf(wire.AdminEvent{Event: "no-such"}); ok {
		t.Error("an event of no name has a type")
	}
}

// TestEventJSONIsTodays: the bytes written for an event are those a
// wire.AdminEvent of its name wrote before the types (the log fixture's
// replay holds the rest).
func TestEventJSONIsTodays(t *testing.T) {
	for _, c := range []struct {
		e    Event
		want string
	}{
		{Credit{User: "ana", Amount: 5000, Memo: "welcome"}, `{"event":"credit","user":"ana","amount":5000,"memo":"welcome"}`},
		{ForceCards{}, `{"event":"force-cards"}`},
		{CloseTable{User: "pit", By: "pit", Table: 3, Memo: "m", Text: "t"}, `{"event":"close-table","user":"pit","memo":"m","text":"t","table":3,"by":"pit"}`},
		{NodeLost{Node: "b", URL: "http://b", Tables: 2, At: "2026-01-01T00:00:00Z", Text: "b"}, `{"event":"node-lost","text":"b","node":"b","url":"http://b","tables":2,"at":"2026-01-01T00:00:00Z"}`},
	} {
		got, err := json.Marshal(c.e)
		if err != nil || string(got) != c.want {
			t.Errorf("%T: %s, %v; want %s", c.e, got, err, c.want)
		}
	}
}
