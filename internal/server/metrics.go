package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/cluster"
	"sabot/internal/operator"
)

// metrics are the service's Prometheus metrics, in a registry of their own
// so that several servers (tests) live in one process.
type metrics struct {
	reg *prometheus.Registry
	// The tables' (internal/actor): rounds, decisions, commands, events,
	// the return watched, and the errors, which the server counts too.
	table   *actor.Metrics
	errors  *prometheus.CounterVec // code
	tables  prometheus.Gauge
	sockets prometheus.Gauge
	hashes  *prometheus.CounterVec // op: compare, generate (bcrypt)
	refused prometheus.Counter     // connections over the cap of their address
	paced   prometheus.Counter
	// socketsUnanswered: sockets closed because their client did not
	// answer a ping.
	socketsUnanswered prometheus.Counter
	tarpitted         prometheus.Counter // refusals held back: their address was refused too often

	// Several nodes (internal/cluster).
	cluster *cluster.Metrics

	// The store's group commit, where the store tells it (sabot.CommitObserver).
	commitTime    prometheus.Histogram
	commitAppends prometheus.Histogram
	decisionWait  prometheus.Histogram

	// The operator's wallet (internal/operator).
	wallet *operator.Metrics

	// The reports' rollups (rollups.go): the records they read.
	rollupRecords prometheus.Counter
}

func newMetrics() *metrics {
	table := actor.NewMetrics()
	m := &metrics{
		reg:     prometheus.NewRegistry(),
		table:   table,
		errors:  table.Errors,
		tables:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_tables", Help: "Tables served."}),
		sockets: prometheus.NewGauge(prometheus.GaugeOpts{Name: "sabot_websockets", Help: "Open WebSocket connections."}),
		hashes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_password_hashes_total",
			Help: "Password hashes computed (bcrypt), by operation: compare (a login, unknown names included) or generate (a registration)."}, []string{"op"}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_connections_refused_total",
			Help: "Connections closed as they were accepted: their client address held its cap of open connections."}),
		paced:             prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_websocket_paced_total", Help: "WebSocket messages held back by the per-socket rate."}),
		socketsUnanswered: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_websocket_unanswered_total", Help: "WebSockets closed because their client did not answer a ping."}),
		tarpitted: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_tarpitted_total",
			Help: "Refused requests answered only after the tarpit delay: their client address was refused too often."}),
		cluster: cluster.NewMetrics(),
		commitTime: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sabot_store_commit_seconds",
			Help:    "Time of a group-commit transaction of the log and ledger, its sync included.",
			Buckets: latencyBuckets}),
		commitAppends: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sabot_store_commit_appends",
			Help:    "Appends (log records with their postings) per group-commit transaction.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64}}),
		decisionWait: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sabot_store_decision_wait_seconds",
			Help:    "Time a decision's record waited for the store's writer before its transaction began.",
			Buckets: latencyBuckets}),
		wallet: operator.NewMetrics(),
		rollupRecords: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_rollup_records_total",
			Help: "Log records the reports' rollups read past their marks (docs/pit.md, \"Rollups\")."}),
	}
	m.reg.MustRegister(m.wallet.Collectors()...)
	m.reg.MustRegister(m.cluster.Collectors()...)
	m.reg.MustRegister(m.table.Collectors()...)
	m.reg.MustRegister(m.tables, m.sockets, m.hashes, m.refused, m.paced, m.socketsUnanswered, m.tarpitted,
		m.commitTime, m.commitAppends, m.decisionWait, m.rollupRecords,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

var latencyBuckets = actor.LatencyBuckets

// commit records a transaction of the store's group commit.
func (m *metrics) commit(c sabot.CommitStats) {
	m.commitTime.Observe(c.Took.Seconds())
	m.commitAppends.Observe(float64(c.Appends))
	for _, w := range c.Waits {
		m.decisionWait.Observe(w.Seconds())
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
