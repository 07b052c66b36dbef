package specop_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot/internal/wallet/specop"
	"sabot/money"
)

// The spec's operator takes an amount from 0 to money.Max, a whole number,
// and refuses any other (invalid_amount) without acting; a debit of the
// bound itself is an amount.
func TestAmountBounds(t *testing.T) {
	secret := []byte("the operator's secret")
	op := specop.New(secret, "EUR")
	op.AddPlayer("p1", "Ana", money.Max)
	srv := httptest.NewServer(op)
	defer srv.Close()
	debit := func(id, amount string) (status, reason string, balance money.Amount) {
		body := `{"transaction_id":"` + id + `","player":"p1","currency":"EUR","amount":` + amount + `}`
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(ts + "\nPOST\n/debit\n" + body))
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/debit", strings.NewReader(body))
		req.Header.Set("X-Sabot-Timestamp", ts)
		req.Header.Set("X-Sabot-Signature", "sha256="+hex.EncodeToString(m.Sum(nil)))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var ans struct {
			Status  string       `json:"status"`
			Reason  string       `json:"reason"`
			Balance money.Amount `json:"balance"`
		}
		if err := json.NewDecoder(res.Body).Decode(&ans); err != nil {
			t.Fatalf("%s: HTTP %d: %v", id, res.StatusCode, err)
		}
		return ans.Status, ans.Reason, ans.Balance
	}
	for i, amount := range []string{"-1", "1000000000000001", "9223372036854775808", "1.5", `"100"`} {
		if status, reason, bal := debit("bad-"+strconv.Itoa(i), amount); status != "refused" || reason != "invalid_amount" || bal != money.Max {
			t.Errorf("a debit of %s: %s %s, balance %d", amount, status, reason, bal)
		}
	}
	if status, _, bal := debit("max", "1000000000000000"); status != "ok" || bal != 0 {
		t.Errorf("a debit of money.Max: %s, balance %d", status, bal)
	}
	if st := op.Statement(); len(st) != 6 || st[5].Amount != money.Max || st[0].Amount != -1 {
		t.Errorf("the statement: %+v", st)
	}
}
