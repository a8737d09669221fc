package engine

import (
	"context"
	"errors"

	"github.com/dop251/goja"
)

// ErrNoHealth is Health's answer when the bundle defines no
// globalThis.health function.
var ErrNoHealth = errors.New("engine: the bundle defines no globalThis.health")

// Health runs the bundle's globalThis.health() (awaiting a Promise) as a
// health check. A throw, a rejection or a result of false fails it (a
// KindException RenderError, the isolate kept); one that runs past ctx or
// crashes is fatal, as a render would be.
func (i *Isolate) Health(ctx context.Context) error {
	if i.closed || i.dead != nil {
		return i.refusal()
	}
	fn, ok := goja.AssertFunction(i.rt.GlobalObject().Get("health"))
	if !ok {
		return ErrNoHealth
	}
	i.renderAlloc = 0
	_, rerr := i.runJS(ctx, func() (*Response, error) {
		defer i.loop.reset()
		v, err := fn(goja.Undefined())
		if err != nil {
			return nil, err
		}
		if v, err = i.await(ctx, v); err != nil {
			return nil, err
		}
		if v != nil && v.StrictEquals(i.rt.ToValue(false)) {
			return nil, &RenderError{Kind: KindException, Message: "health() returned false"}
		}
		return nil, nil
	})
	if rerr != nil {
		if rerr.Fatal() {
			i.dead = rerr
		}
		return rerr
	}
	return nil
}
