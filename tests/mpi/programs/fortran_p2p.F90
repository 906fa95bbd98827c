! fortran_p2p: MPI through its Fortran bindings (`use mpi`; built with
! -DPLX_F08, `use mpi_f08` as fortran_f08_p2p), with each MPI call and message
! counted by hand into <dir>/counts-<rank>.txt in the format of count.h (names
! in C form: MPI_Send, ...), so a test can check a trace exactly.
!
!   mpirun -np N fortran_p2p [COUNTS_DIR]      N >= 2; or $PLX_TEST_COUNTS_DIR
!
! A token round the ring with MPI_Send/MPI_Recv (2 integers = 8 B) [1]; one
! double to the left neighbour, received with MPI_Irecv and an MPI_Test loop
! (MPI_STATUS_IGNORE), sent with MPI_Isend and MPI_Wait [4]; three
! halo exchanges with both neighbours by MPI_Irecv/MPI_Isend + MPI_Waitall
! (16 double precision = 128 B) [2 to the right, 3 to the left];
! MPI_Allreduce (1 double), MPI_Bcast from rank 0 (4 integers), MPI_Barrier.
! Every count and line is the same in every run, but for the MPI_Test calls.
program fortran_p2p
#ifdef PLX_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: max_names = 16, max_lines = 64
  character(len=24) :: names(max_names)
  integer :: calls(max_names), num_names = 0
  character(len=48) :: lines(max_lines)
  integer :: num_lines = 0
  integer :: ierr, rank, nprocs, left, right, round
  integer :: token(2), shared(4)
#ifdef PLX_F08
  type(MPI_Request) :: requests(4), request
  type(MPI_Status) :: statuses(4), status
#else
  integer :: requests(4), request, statuses(MPI_STATUS_SIZE, 4), status(MPI_STATUS_SIZE)
#endif
  logical :: flag
  double precision :: to_right(16), to_left(16), from_left(16), from_right(16)
  double precision :: mine(1), total(1), back(1), back_out(1)

  call MPI_Init(ierr)
  call count_call('MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call count_call('MPI_Comm_rank')
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call count_call('MPI_Comm_size')
  if (nprocs < 2) then
    if (rank == 0) write (*, '(a)') 'fortran_p2p: needs 2 or more ranks'
    call MPI_Finalize(ierr)
    stop 2
  end if
  left = mod(rank + nprocs - 1, nprocs)
  right = mod(rank + 1, nprocs)

  ! The token starts at rank 0 and gains one per hop.
  token = (/ 0, 0 /)
  if (rank == 0) then
    call MPI_Send(token, 2, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    call count_call('MPI_Send')
    call count_transfer('msg', right, 1, 8)
    call MPI_Recv(token, 2, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
    call count_call('MPI_Recv')
    call count_transfer('rcv', left, 1, 8)
    call check(token(1) == nprocs - 1, 'token')
  else
    call MPI_Recv(token, 2, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
    call count_call('MPI_Recv')
    call count_transfer('rcv', left, 1, 8)
    token(1) = token(1) + 1
    call MPI_Send(token, 2, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    call count_call('MPI_Send')
    call count_transfer('msg', right, 1, 8)
  end if

  ! Each rank to its left neighbour (1 double = 8 B); the receive completes
  ! in an MPI_Test loop, the send in MPI_Wait.
  back_out(1) = rank
  call MPI_Irecv(back, 1, MPI_DOUBLE_PRECISION, right, 4, MPI_COMM_WORLD, request, ierr)
  call count_call('MPI_Irecv')
  call MPI_Isend(back_out, 1, MPI_DOUBLE_PRECISION, left, 4, MPI_COMM_WORLD, requests(1), ierr)
  call count_call('MPI_Isend')
  call count_transfer('msg', left, 4, 8)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(request, flag, MPI_STATUS_IGNORE, ierr)
    call count_call('MPI_Test')
  end do
  call count_transfer('rcv', right, 4, 8)
  call MPI_Wait(requests(1), status, ierr)
  call count_call('MPI_Wait')
  call check(abs(back(1) - right) < 0.5d0, 'back')

  do round = 1, 3
    to_right = rank + round
    to_left = -(rank + round)
    call MPI_Irecv(from_left, 16, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, requests(1), ierr)
    call count_call('MPI_Irecv')
    call MPI_Irecv(from_right, 16, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, requests(2), &
                   ierr)
    call count_call('MPI_Irecv')
    call MPI_Isend(to_right, 16, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, requests(3), ierr)
    call count_call('MPI_Isend')
    call count_transfer('msg', right, 2, 128)
    call MPI_Isend(to_left, 16, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, requests(4), ierr)
    call count_call('MPI_Isend')
    call count_transfer('msg', left, 3, 128)
    call MPI_Waitall(4, requests, statuses, ierr)
    call count_call('MPI_Waitall')
    call count_transfer('rcv', left, 2, 128)
    call count_transfer('rcv', right, 3, 128)
    call check(abs(from_left(16) - (left + round)) < 0.5d0 .and. &
               abs(from_right(1) + (right + round)) < 0.5d0, 'halo')
  end do

  mine(1) = rank
  call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call count_call('MPI_Allreduce')
  call check(abs(total(1) - nprocs * (nprocs - 1) / 2) < 0.5d0, 'allreduce')
  shared = 0
  if (rank == 0) shared = (/ 1, 2, 3, 4 /)
  call MPI_Bcast(shared, 4, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call count_call('MPI_Bcast')
  call check(shared(4) == 4, 'bcast')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call count_call('MPI_Barrier')

  if (rank == 0) write (*, '(a, i0, a)') 'fortran_p2p: ', nprocs, ' ranks'
  call write_counts()
  call MPI_Finalize(ierr)

contains

  subroutine count_call(name)
    character(len=*), intent(in) :: name
    integer :: k
    do k = 1, num_names
      if (names(k) == name) then
        calls(k) = calls(k) + 1
        return
      end if
    end do
    num_names = num_names + 1
    names(num_names) = name
    calls(num_names) = 1
  end subroutine count_call

  ! A `msg <dest> <tag> <bytes>` or `rcv <src> <tag> <bytes>` line.
  subroutine count_transfer(kind, peer, tag, bytes)
    character(len=3), intent(in) :: kind
    integer, intent(in) :: peer, tag, bytes
    num_lines = num_lines + 1
    write (lines(num_lines), '(a, 1x, i0, 1x, i0, 1x, i0)') kind, peer, tag, bytes
  end subroutine count_transfer

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: ignored
    if (.not. ok) then
      write (0, '(a, a)') 'fortran_p2p: check failed: ', what
      call MPI_Abort(MPI_COMM_WORLD, 99, ignored)
    end if
  end subroutine check

  ! <dir>/counts-<rank>.txt: names sorted, then the transfers in program order.
  subroutine write_counts()
    character(len=4096) :: dir
    character(len=4200) :: path
    character(len=24) :: name_swap
    integer :: length, status, unit, j, k, calls_swap
    call get_command_argument(1, dir, length, status)
    if (status /= 0 .or. length == 0 .or. dir == '-') then
      call get_environment_variable('PLX_TEST_COUNTS_DIR', dir, length, status)
      if (status /= 0 .or. length == 0) return
    end if
    do j = 1, num_names - 1
      do k = j + 1, num_names
        if (llt(names(k), names(j))) then
          name_swap = names(j)
          names(j) = names(k)
          names(k) = name_swap
          calls_swap = calls(j)
          calls(j) = calls(k)
          calls(k) = calls_swap
        end if
      end do
    end do
    write (path, '(a, a, i0, a)') trim(dir), '/counts-', rank, '.txt'
    open (newunit=unit, file=trim(path) // '.tmp', status='replace', action='write')
    do j = 1, num_names
      write (unit, '(a, 1x, i0)') trim(names(j)), calls(j)
    end do
    do j = 1, num_lines
      write (unit, '(a)') trim(lines(j))
    end do
    write (unit, '(a)') 'after MPI_Finalize 1'
    close (unit)
    call rename(trim(path) // '.tmp', trim(path))
  end subroutine write_counts

end program fortran_p2p
