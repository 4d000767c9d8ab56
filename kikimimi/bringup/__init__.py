"""Hardware bring-up: test mode, binding readers to roles, enrollment."""
