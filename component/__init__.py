"""Streamlit rendering: sidebar, chat column, summary panel, interface strings."""
