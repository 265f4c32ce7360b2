# Shader variants of the analytic family (explicit list, STYLE.md B7).
