// Package render is bext's HTTP surface: the chi router, the SSR handler
// that turns an http.Request into a render through the pool, static files
// from public_dir, hashed client assets, the admin routes (/__bext/*,
// /metrics), health and readiness, and error pages. It knows nothing of
// file watching: bext dev passes hooks (HTML injection, extra routes).
package render
