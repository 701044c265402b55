from corroborator.cli import main

main()
