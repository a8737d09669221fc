package webidl

import (
	"github.com/dop251/goja"
)

// DOMException is defined by WebIDL itself, so it lives here: every spec
// package throws it (AbortError, DataCloneError, InvalidStateError, …).

// legacyCodes are the `code` values of the legacy exception names.
var legacyCodes = map[string]int{
	"IndexSizeError": 1, "HierarchyRequestError": 3, "WrongDocumentError": 4, "InvalidCharacterError": 5,
	"NoModificationAllowedError": 7, "NotFoundError": 8, "NotSupportedError": 9, "InvalidStateError": 11,
	"SyntaxError": 12, "InvalidModificationError": 13, "NamespaceError": 14, "InvalidAccessError": 15,
	"TypeMismatchError": 17, "SecurityError": 18, "NetworkError": 19, "AbortError": 20, "URLMismatchError": 21,
	"QuotaExceededError": 22, "TimeoutError": 23, "InvalidNodeTypeError": 24, "DataCloneError": 25,
}

var legacyConsts = []struct {
	name string
	code int
}{
	{"INDEX_SIZE_ERR", 1}, {"DOMSTRING_SIZE_ERR", 2}, {"HIERARCHY_REQUEST_ERR", 3}, {"WRONG_DOCUMENT_ERR", 4},
	{"INVALID_CHARACTER_ERR", 5}, {"NO_DATA_ALLOWED_ERR", 6}, {"NO_MODIFICATION_ALLOWED_ERR", 7}, {"NOT_FOUND_ERR", 8},
	{"NOT_SUPPORTED_ERR", 9}, {"INUSE_ATTRIBUTE_ERR", 10}, {"INVALID_STATE_ERR", 11}, {"SYNTAX_ERR", 12},
	{"INVALID_MODIFICATION_ERR", 13}, {"NAMESPACE_ERR", 14}, {"INVALID_ACCESS_ERR", 15}, {"VALIDATION_ERR", 16},
	{"TYPE_MISMATCH_ERR", 17}, {"SECURITY_ERR", 18}, {"NETWORK_ERR", 19}, {"ABORT_ERR", 20}, {"URL_MISMATCH_ERR", 21},
	{"QUOTA_EXCEEDED_ERR", 22}, {"TIMEOUT_ERR", 23}, {"INVALID_NODE_TYPE_ERR", 24}, {"DATA_CLONE_ERR", 25},
}

type domException struct{ name, message string }

type domExceptionKey struct{}

// DOMExceptionClass returns the DOMException interface of r, installing
// it on first use. Instances are Error objects (they have a stack, and
// instanceof Error holds, as in Node) whose prototype is
// DOMException.prototype.
func (r *Realm) DOMExceptionClass() *Class {
	return Value(r, domExceptionKey{}, func() *Class {
		rt := r.RT
		var c *Class
		c = r.NewClass("DOMException", 0, nil, func(call goja.ConstructorCall) *goja.Object {
			msg, name := "", "Error"
			if a := call.Argument(0); !goja.IsUndefined(a) {
				msg = r.String(a)
			}
			if a := call.Argument(1); !goja.IsUndefined(a) {
				name = r.String(a)
			}
			return r.newDOMException(call.This.Prototype(), msg, name)
		})
		_ = c.Proto.SetPrototype(rt.Get("Error").ToObject(rt).Get("prototype").(*goja.Object))
		c.Getter("name", func(this goja.Value) goja.Value { return rt.ToValue(This[*domException](r, this).name) })
		c.Getter("message", func(this goja.Value) goja.Value { return rt.ToValue(This[*domException](r, this).message) })
		c.Getter("code", func(this goja.Value) goja.Value { return rt.ToValue(legacyCodes[This[*domException](r, this).name]) })
		for _, k := range legacyConsts {
			c.Const(k.name, k.code)
		}
		r.Global("DOMException", c.Ctor)
		return c
	})
}

// newDOMException makes an Error object (so it carries a stack) with
// prototype proto and the exception's state.
func (r *Realm) newDOMException(proto *goja.Object, msg, name string) *goja.Object {
	e := r.NewError("Error", msg)
	_ = e.Delete("message")
	_ = e.SetPrototype(proto)
	r.SetSlot(e, &domException{name: name, message: msg})
	return e
}

// DOMException makes a DOMException with message msg and name name
// ("AbortError", "InvalidStateError", …).
func (r *Realm) DOMException(msg, name string) *goja.Object {
	return r.newDOMException(r.DOMExceptionClass().Proto, msg, name)
}

// ThrowDOMException throws r.DOMException(msg, name).
func (r *Realm) ThrowDOMException(msg, name string) {
	panic(r.DOMException(msg, name))
}
