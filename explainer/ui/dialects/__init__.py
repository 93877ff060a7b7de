"""The Dialects page: every implementation side by side, first divergences, reproduce a number."""
