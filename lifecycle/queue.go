package lifecycle

// RotationQueue is the rotation coordinator's FIFO of slots waiting to rotate.
// DESIGN.md allows at most one worker to drain at a time; a worker that crosses
// its threshold while another drains keeps serving and is queued here, to be
// rotated next, in the order the slots asked. A slot is queued at most once:
// asking again while queued is a no-op and the first reason wins, so a worker
// that hits max_requests and then max_memory rotates once, as max_requests.
//
// The zero value is an empty queue. It is not safe for concurrent use: the
// coordinator goroutine owns it.
type RotationQueue struct {
	items []queued
}

type queued struct {
	id     int
	reason Reason
}

// Push appends slot id with reason r. It returns false, and changes nothing,
// if id is already queued.
func (q *RotationQueue) Push(id int, r Reason) bool {
	if q.Contains(id) {
		return false
	}
	q.items = append(q.items, queued{id, r})
	return true
}

// Pop removes and returns the slot that has waited longest; ok is false if the
// queue is empty.
func (q *RotationQueue) Pop() (id int, r Reason, ok bool) {
	if len(q.items) == 0 {
		return 0, ReasonNone, false
	}
	head := q.items[0]
	q.items[0] = queued{}
	q.items = q.items[1:]
	return head.id, head.reason, true
}

// PopFirst removes and returns the slot that has waited longest among those
// for which ready returns true, keeping every other slot queued in its
// place; ok is false if none is ready. The coordinator uses it to skip a slot
// that cannot rotate yet (its worker still boots, or another worker drains)
// without losing its turn.
func (q *RotationQueue) PopFirst(ready func(id int) bool) (id int, r Reason, ok bool) {
	for i, it := range q.items {
		if ready(it.id) {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return it.id, it.reason, true
		}
	}
	return 0, ReasonNone, false
}

// Len returns the number of queued slots.
func (q *RotationQueue) Len() int { return len(q.items) }

// Contains reports whether slot id is queued.
func (q *RotationQueue) Contains(id int) bool {
	for _, it := range q.items {
		if it.id == id {
			return true
		}
	}
	return false
}

// Remove drops slot id from the queue, keeping the order of the others. It is
// for a slot that stopped for another reason (crash, shutdown) before its turn.
// Removing an id that is not queued is a no-op.
func (q *RotationQueue) Remove(id int) {
	for i, it := range q.items {
		if it.id == id {
			q.items = append(q.items[:i], q.items[i+1:]...)
			return
		}
	}
}
