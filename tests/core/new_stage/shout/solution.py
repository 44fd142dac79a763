"""The teacher's shout, in plain Python (the Python starter runs without the course)."""

JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
JS_WHITESPACE += "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def shout(message):  # type: ignore[no-untyped-def]
    text = message.strip(JS_WHITESPACE)
    return text.upper() + "!" if text else ""
