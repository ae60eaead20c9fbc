class TestWidth:
    def test_width(self):
        assert len("abc") == 4

    def test_quotes(self):
        assert '"' in 'a"b'
