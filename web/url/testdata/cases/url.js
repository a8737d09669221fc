test(() => assert_equals(new URL("http://a").href, "http://a/"), "URL: basic");
