"""Fixtures shared by the browser tests (``web_support``): a server and Debian's Chromium."""

from web_support import browser, web

__all__ = ["browser", "web"]
