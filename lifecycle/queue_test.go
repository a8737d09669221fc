package lifecycle

import "testing"

type popped struct {
	id int
	r  Reason
}

func drain(q *RotationQueue) []popped {
	var out []popped
	for {
		id, r, ok := q.Pop()
		if !ok {
			return out
		}
		out = append(out, popped{id, r})
	}
}

func TestRotationQueue(t *testing.T) {
	type op struct {
		push   bool // false: Remove
		id     int
		r      Reason
		wantOK bool // Push result
	}
	push := func(id int, r Reason, ok bool) op { return op{true, id, r, ok} }
	remove := func(id int) op { return op{push: false, id: id} }
	tests := []struct {
		name string
		ops  []op
		want []popped
	}{
		{"empty", nil, nil},
		{"fifo order", []op{
			push(2, ReasonMaxRequests, true),
			push(0, ReasonMaxMemory, true),
			push(3, ReasonMaxUptime, true),
		}, []popped{{2, ReasonMaxRequests}, {0, ReasonMaxMemory}, {3, ReasonMaxUptime}}},
		{"dedup keeps first reason and position", []op{
			push(1, ReasonMaxRequests, true),
			push(2, ReasonManual, true),
			push(1, ReasonMaxMemory, false),
		}, []popped{{1, ReasonMaxRequests}, {2, ReasonManual}}},
		{"remove middle keeps order", []op{
			push(0, ReasonFileChange, true),
			push(1, ReasonFileChange, true),
			push(2, ReasonFileChange, true),
			remove(1),
		}, []popped{{0, ReasonFileChange}, {2, ReasonFileChange}}},
		{"remove absent is no-op", []op{
			push(4, ReasonManual, true),
			remove(7),
		}, []popped{{4, ReasonManual}}},
		{"removed id may be queued again at the back", []op{
			push(0, ReasonMaxRequests, true),
			push(1, ReasonMaxRequests, true),
			remove(0),
			push(0, ReasonManual, true),
		}, []popped{{1, ReasonMaxRequests}, {0, ReasonManual}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q RotationQueue
			for _, o := range tt.ops {
				if !o.push {
					q.Remove(o.id)
					continue
				}
				if got := q.Push(o.id, o.r); got != o.wantOK {
					t.Errorf("Push(%d, %q) = %v, want %v", o.id, o.r, got, o.wantOK)
				}
			}
			if q.Len() != len(tt.want) {
				t.Errorf("Len() = %d, want %d", q.Len(), len(tt.want))
			}
			got := drain(&q)
			if len(got) != len(tt.want) {
				t.Fatalf("popped %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("pop %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
			if q.Len() != 0 {
				t.Errorf("Len() after draining = %d, want 0", q.Len())
			}
		})
	}
}

// TestRotationQueueRequeueAfterPop: a slot popped for rotation is no longer
// queued, so its replacement can ask to rotate later.
func TestRotationQueueRequeueAfterPop(t *testing.T) {
	var q RotationQueue
	q.Push(3, ReasonMaxUptime)
	if !q.Contains(3) {
		t.Fatal("Contains(3) = false after Push")
	}
	if id, _, ok := q.Pop(); !ok || id != 3 {
		t.Fatalf("Pop() = %d, %v; want 3, true", id, ok)
	}
	if q.Contains(3) {
		t.Error("Contains(3) = true after Pop")
	}
	if !q.Push(3, ReasonMaxRequests) {
		t.Error("Push(3) after Pop = false, want true")
	}
	if _, _, ok := (&RotationQueue{}).Pop(); ok {
		t.Error("Pop on empty queue reported ok")
	}
}

func TestRotationQueuePopFirst(t *testing.T) {
	var q RotationQueue
	q.Push(3, ReasonManual)
	q.Push(1, ReasonFileChange)
	q.Push(2, ReasonMaxRequests)
	if _, _, ok := q.PopFirst(func(int) bool { return false }); ok || q.Len() != 3 {
		t.Fatalf("nothing ready: ok=%v len=%d, want nothing popped", ok, q.Len())
	}
	id, r, ok := q.PopFirst(func(id int) bool { return id != 3 })
	if !ok || id != 1 || r != ReasonFileChange {
		t.Fatalf("PopFirst skipping 3 = %d %q %v, want 1 file_change", id, r, ok)
	}
	if got := drain(&q); len(got) != 2 || got[0] != (popped{3, ReasonManual}) || got[1] != (popped{2, ReasonMaxRequests}) {
		t.Fatalf("left %v, want 3 then 2 in their order", got)
	}
	if _, _, ok := q.PopFirst(func(int) bool { return true }); ok {
		t.Fatal("PopFirst on an empty queue reported a slot")
	}
}
