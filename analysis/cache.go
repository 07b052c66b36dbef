package analysis

import (
	"context"
	"errors"
	"sync"

	"sabot/rules"
)

// Cache keeps analyses by Profile.GameHash, so that a server can show a
// profile's figures at once after the first computation. It is safe for
// concurrent use; a second request for a profile being computed waits for
// the first instead of computing it again.
type Cache struct {
	mu sync.Mutex
	m  map[string]*cacheEntry
}

type cacheEntry struct {
	done chan struct{}
	res  *Result
	err  error
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{m: map[string]*cacheEntry{}} }

var defaultCache = NewCache()

// Cached returns the analysis of p if the cache holds it.
func (c *Cache) Cached(p *rules.Profile) (*Result, bool) {
	c.mu.Lock()
	e, ok := c.m[p.GameHash()]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	select {
	case <-e.done:
		return e.res, e.err == nil
	default:
		return nil, false
	}
}

func (c *Cache) get(ctx context.Context, p *rules.Profile, compute func() (*Result, error)) (*Result, error) {
	key := p.GameHash()
	for {
		c.mu.Lock()
		e, ok := c.m[key]
		if !ok {
			e = &cacheEntry{done: make(chan struct{})}
			c.m[key] = e
			c.mu.Unlock()
			e.res, e.err = compute()
			if e.err != nil {
				c.mu.Lock()
				delete(c.m, key)
				c.mu.Unlock()
			}
			close(e.done)
			if e.res != nil && e.res.Profile != p.Name {
				r := *e.res
				r.Profile = p.Name
				return &r, nil
			}
			return e.res, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			continue // the computing caller gave up; try again with ours
		}
		if e.res != nil && e.res.Profile != p.Name {
			r := *e.res
			r.Profile = p.Name
			return &r, e.err
		}
		return e.res, e.err
	}
}
