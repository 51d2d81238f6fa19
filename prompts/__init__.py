"""Text templates (Jinja2) for the system prompt and tool descriptions; no Python logic."""
