"""The chat graph: state, nodes, context building, memory, tools and model providers."""
