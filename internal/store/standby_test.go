package store_test

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"sabot"
	"sabot/internal/store"
)

// The read-only commands' open (OpenRead) of a hot standby is read-only,
// of its primary read-write; OpenReadOnly is read-only on the primary too.
// $SABOT_TEST_HA_PRIMARY and $SABOT_TEST_HA_STANDBY as scripts/pg-ha.sh
// prints them; the standby's tests proper are internal/store/postgres's.
func TestOpenReadFollowsTheServer(t *testing.T) {
	primary, standby := os.Getenv("SABOT_TEST_HA_PRIMARY"), os.Getenv("SABOT_TEST_HA_STANDBY")
	if primary == "" || standby == "" {
		t.Skip("SABOT_TEST_HA_PRIMARY and SABOT_TEST_HA_STANDBY are not set (scripts/pg-ha.sh start prints them)")
	}
	ctx := context.Background()
	// A schema of its own (the PgBouncer tests empty the database's public
	// one meanwhile), made and migrated on the primary, on the standby when
	// its commits return (remote_apply).
	admin, err := pgx.Connect(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	schema := "sabot_test_openread_" + strconv.Itoa(os.Getpid())
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
	in := func(dsn string) string {
		u, _ := url.Parse(dsn)
		q := u.Query()
		q.Set("search_path", schema)
		q.Set("synchronous_commit", "remote_apply")
		u.RawQuery = q.Encode()
		return u.String()
	}
	primary, standby = in(primary), in(standby)
	first, err := store.Open(ctx, primary)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	for _, c := range []struct {
		name, dsn string
		open      func(context.Context, string) (sabot.Store, error)
		readOnly  bool
	}{
		{"OpenRead on the primary", primary, store.OpenRead, false},
		{"OpenRead on the standby", standby, store.OpenRead, true},
		{"OpenReadOnly on the primary", primary, store.OpenReadOnly, true},
	} {
		st, err := c.open(ctx, c.dsn)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := store.ReadOnly(st); got != c.readOnly {
			t.Errorf("%s: read-only %v, want %v", c.name, got, c.readOnly)
		}
		st.Close()
	}
}
