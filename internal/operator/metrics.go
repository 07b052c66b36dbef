package operator

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the operator's wallet's Prometheus metrics; the server
// registers them (Collectors) in its registry.
type Metrics struct {
	calls       *prometheus.CounterVec // op, result: ok, refused, no-answer
	rollbacks   prometheus.Counter
	undelivered prometheus.Gauge
	oldest      prometheus.Gauge
	owed        prometheus.Gauge
	owedAmount  prometheus.Gauge
}

// NewMetrics returns the metrics, at zero.
func NewMetrics() *Metrics {
	return &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_wallet_calls_total",
			Help: "Calls to the operator's wallet, by operation and result: ok, refused, no-answer (sent again)."}, []string{"op", "result"}),
		rollbacks: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_wallet_rollbacks_total",
			Help: "Debits rolled back: no answer within the time limit, or no stake counted them (a significant event each)."}),
		undelivered: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_wallet_undelivered",
			Help: "Credits and rollbacks in the outbox the operator has not answered, as the deliverer last read them."}),
		oldest: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_wallet_undelivered_oldest_seconds",
			Help: "Age of the oldest credit or rollback the operator has not answered (0: none); over a minute is a significant event."}),
		owed: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_wallet_owed",
			Help: "Money owed: credits and rollbacks the operator refused, neither paid since nor resolved by hand (GET /api/admin/wallet/owed)."}),
		owedAmount: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_wallet_owed_minor_units",
			Help: "The sum of the money owed, in minor units of the operator's currency."}),
	}
}

// Collectors are the metrics, to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.calls, m.rollbacks, m.undelivered, m.oldest, m.owed, m.owedAmount}
}
