"""Learning: turning signals and events into memory."""
