"""Local stand-ins for the chat platforms, so adapter tests run the real client libraries."""
