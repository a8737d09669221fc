package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/dop251/goja"

	"bext/web/fetch"
)

// interruptValue is what Render passes to rt.Interrupt when its context ends.
type interruptValue struct{ cause error }

func (v interruptValue) String() string { return "render interrupted: " + v.cause.Error() }

// Render calls the app's render function with req and waits for its result,
// running promise jobs and timers until a returned promise settles.
//
// The error, if any, is a *RenderError. KindException (the JS threw or
// rejected, or returned something that is not a response) leaves the
// isolate usable; every other kind is fatal: the isolate refuses later
// renders and must be replaced. When ctx ends the running JS is interrupted
// and the result is KindTimeout with Cause = context.Cause(ctx); JS that
// ignores the interrupt for Options.InterruptGrace is abandoned
// (KindAbandoned, counted by AbandonedRenders).
func (i *Isolate) Render(ctx context.Context, req *Request) (*Response, error) {
	if i.closed || i.dead != nil {
		return nil, i.refusal()
	}
	if err := ctx.Err(); err != nil {
		// Nothing ran, so the isolate is still good.
		return nil, &RenderError{Kind: KindTimeout, Message: "render not started: " + context.Cause(ctx).Error(), Cause: context.Cause(ctx)}
	}
	i.renderAlloc = 0
	jctx, detach := ctx, func() {}
	if i.handler != nil {
		// ctx.waitUntil work outlives the response: the JS runs under a
		// context that follows ctx until the response is sent (detach),
		// then ends Options.WaitUntil later.
		var cancel context.CancelCauseFunc
		jctx, cancel = context.WithCancelCause(context.WithoutCancel(ctx))
		stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
		var mu sync.Mutex
		var timer *time.Timer
		detach = func() {
			mu.Lock()
			defer mu.Unlock()
			if timer == nil && stop() {
				timer = time.AfterFunc(i.waitUntilBound(), func() { cancel(errWaitUntil) })
			}
		}
		defer func() {
			stop()
			mu.Lock()
			if timer != nil {
				timer.Stop()
			}
			mu.Unlock()
			cancel(nil)
		}()
	}
	resp, rerr := i.runJS(jctx, func() (*Response, error) { return i.call(jctx, req, detach) })
	if rerr != nil {
		if rerr.Fatal() {
			i.dead = rerr
		}
		return nil, rerr
	}
	return resp, nil
}

func (i *Isolate) refusal() *RenderError {
	if i.dead == nil {
		return &RenderError{Kind: KindPanic, Message: "render on a closed isolate", Cause: ErrIsolateDead}
	}
	return &RenderError{Kind: i.dead.Kind, Message: "isolate is dead after an earlier " + i.dead.Kind.String() + " (" + i.dead.Message + "); replace it", Cause: ErrIsolateDead}
}

// call runs on the JS goroutine: render(req) or the fetch handler, then
// the event loop.
func (i *Isolate) call(ctx context.Context, req *Request, detach func()) (*Response, error) {
	defer i.loop.reset() // timers must not leak into the next render
	var v goja.Value
	var err error
	ex := &exchange{}
	defer func() {
		if ctx.Err() != nil {
			i.abortRequest(ex) // the client left or the render ran out of time
		}
	}()
	if i.handler != nil {
		v, err = i.callHandler(req, ex)
	} else {
		v, err = i.render(goja.Undefined(), i.newReq(req))
	}
	if err != nil {
		return nil, err
	}
	if v, err = i.await(ctx, v); err != nil {
		return nil, err
	}
	var thenable bool
	if rerr := i.guard(ctx, func() { thenable = i.isThenable(v) }); rerr != nil {
		return nil, rerr
	}
	if thenable {
		// A thenable that is not a Promise: adopt it, as await would.
		if v, err = i.await(ctx, i.web.Resolved(v)); err != nil {
			return nil, err
		}
	}
	if rd, ok := fetch.ResponseOf(v); ok {
		resp, err := i.deliver(ctx, req, rd, ex)
		if err != nil {
			return nil, err
		}
		ex.sent = true
		if err := i.waitUntil(ctx, ex, detach); err != nil {
			return nil, err
		}
		return resp, nil
	}
	if i.handler != nil {
		var shown string
		if gerr := i.guard(ctx, func() { shown = describe(v) }); gerr != nil {
			return nil, gerr
		}
		return nil, &RenderError{Kind: KindException, Message: errBadHandlerResult + "; it returned " + shown}
	}
	var resp *Response
	var rerr *RenderError
	if gerr := i.guard(ctx, func() { resp, rerr = i.toResponse(v) }); gerr != nil {
		return nil, gerr
	}
	if rerr != nil {
		return nil, rerr
	}
	return resp, nil
}

type result struct {
	resp *Response
	err  *RenderError
}

// runJS runs f on a goroutine of its own, so that a render stuck in a
// native built-in (which goja cannot interrupt) can be abandoned instead of
// blocking its caller forever. A goroutine costs about a microsecond, which
// is noise next to a render. f must only touch the runtime.
func (i *Isolate) runJS(ctx context.Context, f func() (*Response, error)) (*Response, *RenderError) {
	i.imu.Lock()
	i.running = true
	i.runs++
	run := i.runs
	i.imu.Unlock()
	i.ctx = ctx
	stop := context.AfterFunc(ctx, func() {
		i.imu.Lock()
		// run: an AfterFunc that starts late must not interrupt the
		// next call.
		if i.running && i.runs == run {
			i.rt.Interrupt(interruptValue{context.Cause(ctx)})
		}
		i.imu.Unlock()
	})
	defer stop()
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if x := recover(); x != nil {
				res = result{err: &RenderError{Kind: KindPanic, Message: fmt.Sprint("Go panic: ", x), Stack: string(debug.Stack())}}
			}
			i.imu.Lock()
			i.running = false
			i.imu.Unlock()
			// An interrupt that raced with the end of f must not hit the next call.
			i.rt.ClearInterrupt()
			done <- res
		}()
		resp, err := f()
		res = result{resp: resp}
		if err != nil {
			res.err = classify(ctx, err)
		}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-ctx.Done():
	}
	grace := time.NewTimer(i.opts.InterruptGrace)
	defer grace.Stop()
	select {
	case r := <-done:
		if r.err == nil {
			// It finished just as ctx ended; the result is good.
			return r.resp, nil
		}
		return r.resp, r.err
	case <-grace.C:
		abandoned.Add(1)
		abandonedRunning.Add(1)
		go func() {
			<-done
			abandonedRunning.Add(-1)
			if onAbandonedReturn != nil {
				onAbandonedReturn()
			}
		}()
		rerr := &RenderError{Kind: KindAbandoned, Cause: context.Cause(ctx),
			Message: fmt.Sprintf("render ignored its interrupt for %s (stuck in a native call such as a catastrophic regexp); its goroutine was abandoned", i.opts.InterruptGrace)}
		i.dead = rerr
		return nil, rerr
	}
}

// classify turns what goja returned into a RenderError.
func classify(ctx context.Context, err error) *RenderError {
	var re *RenderError
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	var ex *goja.Exception
	switch {
	case errors.As(err, &re):
		return re
	case errors.Is(err, errCtxDone) || errors.As(err, &ie):
		stack := ""
		if ie != nil {
			stack = ie.String()
		}
		cause := context.Cause(ctx)
		msg := "render interrupted"
		if cause != nil {
			msg += ": " + cause.Error()
		}
		return &RenderError{Kind: KindTimeout, Message: msg, Stack: stack, Cause: cause}
	case errors.As(err, &so):
		return &RenderError{Kind: KindStackOverflow, Message: "maximum call stack size exceeded (endless recursion?)", Stack: so.String()}
	case errors.As(err, &ex):
		return &RenderError{Kind: KindException, Message: valueMessage(ex.Value()), Stack: ex.String()}
	case errors.Is(err, errNeverSettles):
		return &RenderError{Kind: KindException, Message: err.Error()}
	}
	return &RenderError{Kind: KindException, Message: err.Error()}
}

// await runs the event loop until v, if a Promise, settles, and returns
// its value; a rejection is a KindException error. Anything else is v.
func (i *Isolate) await(ctx context.Context, v goja.Value) (goja.Value, error) {
	p, ok := i.asPromise(v)
	if !ok {
		return v, nil
	}
	if err := i.settle(ctx, p); err != nil {
		return nil, err
	}
	if p.State() == goja.PromiseStateRejected {
		return nil, rejection(p.Result())
	}
	return p.Result(), nil
}

// asPromise returns v as a Promise without running any of its code: only
// an object inheriting from Promise.prototype is exported (Export of an
// ordinary object would call its getters).
func (i *Isolate) asPromise(v goja.Value) (*goja.Promise, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	for proto := o.Prototype(); proto != nil; proto = proto.Prototype() {
		if proto == i.promiseProto {
			p, ok := o.Export().(*goja.Promise)
			return p, ok
		}
	}
	return nil, false
}

// isThenable: an object, not a Promise, with a callable then.
func (i *Isolate) isThenable(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	if _, isP := i.asPromise(v); isP {
		return false
	}
	then, ok := goja.AssertFunction(o.Get("then"))
	return ok && then != nil
}

// rejection describes the reason of a rejected render promise.
func rejection(reason goja.Value) *RenderError {
	e := &RenderError{Kind: KindException, Message: valueMessage(reason)}
	if o, ok := reason.(*goja.Object); ok {
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			e.Stack = st.String()
		}
	}
	return e
}

// valueMessage is "Name: message" for errors and String() for anything else.
func valueMessage(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	return v.String()
}
