"""The Context Director: the memory that applies to a task, within a budget, with reasons."""
