"""The Streamlit UI: the only subpackage that imports Streamlit. Pages are thin; highlight HTML, charts and
permalink encoding are pure functions over traces in their own modules."""
