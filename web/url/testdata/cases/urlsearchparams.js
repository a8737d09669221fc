test(() => assert_equals(new URLSearchParams("a=b").get("a"), "b"), "get: basic");
