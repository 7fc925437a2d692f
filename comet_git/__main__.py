from comet_git.entry import main

if __name__ == "__main__":
    main()
