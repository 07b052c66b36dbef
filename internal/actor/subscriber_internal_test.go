package actor

// drain takes every message waiting for a subscriber, in order, without
// waiting.
func (s *Subscriber) drain() [][]byte {
	var all [][]byte
	for {
		select {
		case b, ok := <-s.ch:
			if !ok {
				return all
			}
			s.Taken(b)
			all = append(all, b...)
		default:
			return all
		}
	}
}
