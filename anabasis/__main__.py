from anabasis.cli import main

raise SystemExit(main())
