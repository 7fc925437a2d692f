"""The Dashboard (`comet dashboard`): see, check and correct memory in a browser."""
