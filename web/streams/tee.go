package streams

import (
	"github.com/dop251/goja"
)

// tee is ReadableStreamTee (cloneForBranch2 false).
func (s *state) tee(st *rstream) (*rstream, *rstream) {
	if _, ok := st.ctrl.(*byteController); ok {
		return s.byteTee(st)
	}
	return s.defaultTee(st)
}

// teeCancel is the cancel algorithms both tees share.
type teeCancel struct {
	s                    *state
	stream               *rstream
	canceled1, canceled2 bool
	reason1, reason2     goja.Value
	cancelPromise        *promise
}

func (t *teeCancel) cancel(second bool) func(goja.Value) goja.Value {
	return func(reason goja.Value) goja.Value {
		if second {
			t.canceled2, t.reason2 = true, reason
		} else {
			t.canceled1, t.reason1 = true, reason
		}
		if t.canceled1 && t.canceled2 {
			composite := t.s.rt.NewArray(t.reason1, t.reason2)
			t.cancelPromise.resolve(t.stream.cancel(composite))
		}
		return t.cancelPromise.v
	}
}

func (t *teeCancel) resolveIfLive() {
	if !t.canceled1 || !t.canceled2 {
		t.cancelPromise.resolve(goja.Undefined())
	}
}

func (s *state) defaultTee(st *rstream) (*rstream, *rstream) {
	rd := s.acquireDefaultReader(st)
	t := &teeCancel{s: s, stream: st, cancelPromise: s.newPromise()}
	reading, readAgain := false, false
	var b1, b2 *rstream
	ctrl := func(b *rstream) *defaultController { return b.ctrl.(*defaultController) }
	var pull func(k func(bool, goja.Value))
	pull = func(k func(bool, goja.Value)) {
		if k != nil {
			defer s.resolvedPull(k)
		}
		if reading {
			readAgain = true
			return
		}
		reading = true
		rd.read(&funcRead{
			chunk: func(chunk goja.Value) {
				s.microtask(func() {
					readAgain = false
					if !t.canceled1 {
						ctrl(b1).enqueue(chunk)
					}
					if !t.canceled2 {
						ctrl(b2).enqueue(chunk)
					}
					reading = false
					if readAgain {
						pull(nil)
					}
				})
			},
			close: func(goja.Value) {
				reading = false
				if !t.canceled1 {
					ctrl(b1).close()
				}
				if !t.canceled2 {
					ctrl(b2).close()
				}
				t.resolveIfLive()
			},
			err: func(goja.Value) { reading = false },
		})
	}
	start := func(goja.Value) goja.Value { return goja.Undefined() }
	b1 = s.createReadable(start, sourceAlgos{pull: pull, cancel: t.cancel(false)}, 1, nil)
	b2 = s.createReadable(start, sourceAlgos{pull: pull, cancel: t.cancel(true)}, 1, nil)
	s.upon(rd.closed.v, nil, func(e goja.Value) {
		ctrl(b1).error(e)
		ctrl(b2).error(e)
		t.resolveIfLive()
	})
	return b1, b2
}

// cloneAsUint8Array is CloneAsUint8Array.
func (s *state) cloneAsUint8Array(chunk goja.Value) goja.Value {
	v, _ := s.asView(chunk)
	b := make([]byte, v.n)
	copy(b, v.ab.Bytes()[v.off:v.off+v.n])
	return s.newUint8(s.rt.NewArrayBuffer(b), 0, v.n)
}

func (s *state) byteTee(st *rstream) (*rstream, *rstream) {
	rd := s.acquireDefaultReader(st)
	t := &teeCancel{s: s, stream: st, cancelPromise: s.newPromise()}
	reading, again1, again2 := false, false, false
	var b1, b2 *rstream
	var c1, c2 *byteController
	var forwardReaderError func(r *reader)
	forwardReaderError = func(this *reader) {
		s.upon(this.closed.v, nil, func(e goja.Value) {
			if this != rd {
				return
			}
			c1.error(e)
			c2.error(e)
			t.resolveIfLive()
		})
	}
	var pull1, pull2 func(k func(bool, goja.Value))
	again := func() {
		if again1 {
			pull1(nil)
		} else if again2 {
			pull2(nil)
		}
	}
	enqueueView := func(c *byteController, chunk goja.Value) {
		v, _ := s.asView(chunk)
		c.enqueue(v.ab, v.off, v.n)
	}
	pullWithDefaultReader := func() {
		if rd.byob {
			rd.release()
			rd = s.acquireDefaultReader(st)
			forwardReaderError(rd)
		}
		rd.read(&funcRead{
			chunk: func(chunk goja.Value) {
				s.microtask(func() {
					again1, again2 = false, false
					chunk1, chunk2 := chunk, chunk
					if !t.canceled1 && !t.canceled2 {
						chunk2 = s.cloneAsUint8Array(chunk)
					}
					if !t.canceled1 {
						enqueueView(c1, chunk1)
					}
					if !t.canceled2 {
						enqueueView(c2, chunk2)
					}
					reading = false
					again()
				})
			},
			close: func(goja.Value) {
				reading = false
				if !t.canceled1 {
					c1.close()
				}
				if !t.canceled2 {
					c2.close()
				}
				if len(c1.pending) > 0 {
					c1.respond(0)
				}
				if len(c2.pending) > 0 {
					c2.respond(0)
				}
				t.resolveIfLive()
			},
			err: func(goja.Value) { reading = false },
		})
	}
	pullWithBYOBReader := func(view goja.Value, forBranch2 bool) {
		if !rd.byob {
			rd.release()
			rd = s.acquireBYOBReader(st)
			forwardReaderError(rd)
		}
		byobC, otherC := c1, c2
		if forBranch2 {
			byobC, otherC = c2, c1
		}
		canceled := func() (bool, bool) {
			if forBranch2 {
				return t.canceled2, t.canceled1
			}
			return t.canceled1, t.canceled2
		}
		v, _ := s.asView(view)
		rd.readInto(v, 1, &funcRead{
			chunk: func(chunk goja.Value) {
				s.microtask(func() {
					again1, again2 = false, false
					byobCanceled, otherCanceled := canceled()
					cv, _ := s.asView(chunk)
					if !otherCanceled {
						cloned := s.cloneAsUint8Array(chunk)
						if !byobCanceled {
							byobC.respondWithNewView(cv)
						}
						enqueueView(otherC, cloned)
					} else if !byobCanceled {
						byobC.respondWithNewView(cv)
					}
					reading = false
					again()
				})
			},
			close: func(chunk goja.Value) {
				reading = false
				byobCanceled, otherCanceled := canceled()
				if !byobCanceled {
					byobC.close()
				}
				if !otherCanceled {
					otherC.close()
				}
				if !goja.IsUndefined(chunk) {
					if !byobCanceled {
						cv, _ := s.asView(chunk)
						byobC.respondWithNewView(cv)
					}
					if !otherCanceled && len(otherC.pending) > 0 {
						otherC.respond(0)
					}
				}
				if !byobCanceled || !otherCanceled {
					t.cancelPromise.resolve(goja.Undefined())
				}
			},
			err: func(goja.Value) { reading = false },
		})
	}
	mkPull := func(second bool) func(k func(bool, goja.Value)) {
		return func(k func(bool, goja.Value)) {
			if k != nil {
				defer s.resolvedPull(k)
			}
			if reading {
				if second {
					again2 = true
				} else {
					again1 = true
				}
				return
			}
			reading = true
			c := c1
			if second {
				c = c2
			}
			if req := c.getBYOBRequest(); req == nil {
				pullWithDefaultReader()
			} else {
				pullWithBYOBReader(req.view, second)
			}
		}
	}
	pull1, pull2 = mkPull(false), mkPull(true)
	start := func(goja.Value) goja.Value { return goja.Undefined() }
	b1, c1 = s.createByteStream(start, sourceAlgos{pull: pull1, cancel: t.cancel(false)}, 0)
	b2, c2 = s.createByteStream(start, sourceAlgos{pull: pull2, cancel: t.cancel(true)}, 0)
	forwardReaderError(rd)
	return b1, b2
}
