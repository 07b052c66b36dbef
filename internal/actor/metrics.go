package actor

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"sabot"
)

// Metrics are the tables' Prometheus metrics; the server registers them
// with its own (Collectors) and counts its own refusals in Errors.
type Metrics struct {
	rounds    *prometheus.CounterVec   // result: settled, void
	decisions *prometheus.CounterVec   // by: player, timeout
	commands  *prometheus.HistogramVec // op: a table command's time in its actor, the store write included
	decision  prometheus.Histogram     // a decision's arrival to the publication of its event
	events    prometheus.Counter
	// Errors counts the commands and requests refused or failed, by
	// error code: the tables' and the server's.
	Errors *prometheus.CounterVec
	// The return watched (rtpwatch.go): by table.
	rtp *rtpMetrics
}

// LatencyBuckets are the buckets of the service's latency histograms.
var LatencyBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}

// NewMetrics makes the tables' metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		rounds: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_rounds_total",
			Help: "Rounds closed, by result: settled or void."}, []string{"result"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_decisions_total",
			Help: "Decisions applied, by who made them: player or timeout."}, []string{"by"}),
		commands: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sabot_command_seconds",
			Help:    "Time a table command takes in its table, the log and ledger write included, by operation.",
			Buckets: LatencyBuckets}, []string{"op"}),
		decision: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sabot_decision_seconds",
			Help: "Time from a player's decision reaching the server to the publication of the event that shows it " +
				"applied (its record durable first): the server's part of the decision-to-event latency.",
			Buckets: LatencyBuckets}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sabot_errors_total",
			Help: "Commands and requests refused or failed, by error code."}, []string{"code"}),
		events: prometheus.NewCounter(prometheus.CounterOpts{Name: "sabot_events_total", Help: "Table events published."}),
		rtp:    newRTPMetrics(),
	}
}

// Collectors are the metrics, to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return append([]prometheus.Collector{m.rounds, m.decisions, m.commands, m.decision, m.Errors, m.events}, m.rtp.collectors()...)
}

// decided records the time of a player's decision, from its arrival to
// the publication of its event.
func (m *Metrics) decided(c *Command) {
	if !c.received.IsZero() {
		m.decision.Observe(time.Since(c.received).Seconds())
	}
}

func (m *Metrics) observe(op string, d time.Duration, err error) {
	m.commands.WithLabelValues(op).Observe(d.Seconds())
	if err != nil {
		m.Errors.WithLabelValues(sabot.ErrorCode(err)).Inc()
	}
}
