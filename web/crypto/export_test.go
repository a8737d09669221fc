package crypto

// SetAsyncMin sets the size from which digests, HMAC and AES leave the JS
// goroutine, for benchmarks of both paths; it returns a func restoring it.
func SetAsyncMin(n int) func() {
	d, c := digestAsyncMin, cipherAsyncMin
	digestAsyncMin, cipherAsyncMin = n, n
	return func() { digestAsyncMin, cipherAsyncMin = d, c }
}
